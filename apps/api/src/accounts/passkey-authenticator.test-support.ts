import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * A software authenticator for API tests: a real EC P-256 key pair (node:crypto) and the WebAuthn
 * structures a browser and an authenticator send, built by hand: a `none` attestation on
 * registration, a signed assertion on sign-in. Nothing is mocked: the API's library decodes the
 * CBOR and checks the ES256 signatures as it would a phone's.
 */

const b64url = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64url');

/** CBOR (RFC 8949) heads and the few items these structures use. */
const head = (major: number, length: number): Buffer => {
  if (length < 24) {
    return Buffer.from([(major << 5) | length]);
  }
  if (length < 256) {
    return Buffer.from([(major << 5) | 24, length]);
  }
  const buffer = Buffer.alloc(3);
  buffer[0] = (major << 5) | 25;
  buffer.writeUInt16BE(length, 1);
  return buffer;
};
const cborBytes = (bytes: Uint8Array): Buffer => Buffer.concat([head(2, bytes.length), bytes]);
const cborText = (text: string): Buffer =>
  Buffer.concat([head(3, Buffer.byteLength(text)), Buffer.from(text)]);
const cborInt = (value: number): Buffer => (value >= 0 ? head(0, value) : head(1, -1 - value));

/** The COSE_Key of an ES256 public key: {1: 2, 3: -7, -1: 1, -2: x, -3: y}. */
const coseKeyOf = (publicKey: KeyObject): Buffer => {
  const jwk = publicKey.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x ?? '', 'base64url');
  const y = Buffer.from(jwk.y ?? '', 'base64url');
  return Buffer.concat([
    head(5, 5),
    cborInt(1),
    cborInt(2),
    cborInt(3),
    cborInt(-7),
    cborInt(-1),
    cborInt(1),
    cborInt(-2),
    cborBytes(x),
    cborInt(-3),
    cborBytes(y),
  ]);
};

const counterBytes = (count: number): Buffer => {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(count, 0);
  return buffer;
};

/** User present and verified; AT when the attested credential data follows. */
const FLAGS_UP_UV = 0x01 | 0x04;
const FLAG_AT = 0x40;

type TCreationOptions = {
  challenge: string;
  rp?: { id?: string };
  user?: { id?: string };
};
type TRequestOptions = { challenge: string; rpId?: string };

export type TSoftAuthenticator = {
  credentialId: string;
  /** The answer `startRegistration()` would give for these options. */
  register: (options: TCreationOptions, origin: string) => Record<string, unknown>;
  /** The answer `startAuthentication()` would give; each one counts up the signature counter. */
  assert: (
    options: TRequestOptions,
    origin: string,
    tweak?: { signWith?: KeyObject; rpId?: string },
  ) => Record<string, unknown>;
};

export const softAuthenticator = (): TSoftAuthenticator => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const rawId = randomBytes(16);
  const credentialId = b64url(rawId);
  let rpId = '';
  let userHandle: string | undefined;
  let signCount = 0;

  return {
    credentialId,
    register: (options, origin) => {
      rpId = options.rp?.id ?? new URL(origin).hostname;
      userHandle = options.user?.id;
      const clientDataJSON = JSON.stringify({
        type: 'webauthn.create',
        challenge: options.challenge,
        origin,
        crossOrigin: false,
      });
      const credentialIdLength = Buffer.alloc(2);
      credentialIdLength.writeUInt16BE(rawId.length, 0);
      const authData = Buffer.concat([
        createHash('sha256').update(rpId).digest(),
        Buffer.from([FLAGS_UP_UV | FLAG_AT]),
        counterBytes(signCount),
        Buffer.alloc(16), // the AAGUID: none
        credentialIdLength,
        rawId,
        coseKeyOf(publicKey),
      ]);
      const attestationObject = Buffer.concat([
        head(5, 3),
        cborText('fmt'),
        cborText('none'),
        cborText('attStmt'),
        head(5, 0),
        cborText('authData'),
        cborBytes(authData),
      ]);
      return {
        id: credentialId,
        rawId: credentialId,
        type: 'public-key',
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(clientDataJSON),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
      };
    },
    assert: (options, origin, tweak = {}) => {
      signCount += 1;
      const clientDataJSON = Buffer.from(
        JSON.stringify({
          type: 'webauthn.get',
          challenge: options.challenge,
          origin,
          crossOrigin: false,
        }),
      );
      const authData = Buffer.concat([
        createHash('sha256')
          .update(tweak.rpId ?? options.rpId ?? rpId)
          .digest(),
        Buffer.from([FLAGS_UP_UV]),
        counterBytes(signCount),
      ]);
      // ES256: ECDSA with SHA-256 over authData || SHA-256(clientDataJSON), DER-encoded.
      const signature = sign(
        'sha256',
        Buffer.concat([authData, createHash('sha256').update(clientDataJSON).digest()]),
        tweak.signWith ?? privateKey,
      );
      return {
        id: credentialId,
        rawId: credentialId,
        type: 'public-key',
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
          ...(userHandle === undefined ? {} : { userHandle }),
        },
      };
    },
  };
};
