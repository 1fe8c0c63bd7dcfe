import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { FormError } from '@/components/form/form-error';
import { portalReadFailure } from '@/components/portal-read-failure';
import { StoreTime } from '@/components/store-time';
import { TableScroll } from '@/components/table-scroll';
import { requireDeveloper } from '@/lib/session';
import { listOrgKeys } from '@/lib/site-api';
import { tryInReference } from '../actions';
import { KeyStatus } from '../key-status';
import { Unverified } from '../unverified';

export const metadata: Metadata = { title: 'Keys' };

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The organisation's keys, newest first: never the keys themselves, only their starts. */
const KeysPage = async ({ searchParams }: TProps) => {
  await connection();
  const developer = await requireDeveloper();
  if (!developer.emailVerified) {
    return <Unverified email={developer.email} />;
  }
  const query = await searchParams;
  const keys = await listOrgKeys(developer.apiKey);
  if (!keys.ok) {
    return portalReadFailure(keys.failure, '/developers/keys');
  }
  const nowMs = Date.now();
  const revoked = typeof query.revoked === 'string' ? query.revoked.slice(0, 100) : undefined;
  const tryItFailure =
    typeof query['try-it'] === 'string' ? query['try-it'].slice(0, 200) : undefined;
  return (
    <>
      <div className="page-intro">
        <h1 className="page-title">Keys</h1>
        <p className="lead">
          Test keys read the store's data and never change a live store; live keys act for your
          organisation. Each key is shown once, when it is created or rolled.
        </p>
      </div>
      {revoked !== undefined ? (
        <p className="notice" role="status">
          The key “{revoked}” is revoked: requests with it are refused within seconds.
        </p>
      ) : null}
      {tryItFailure !== undefined ? (
        <FormError>We couldn't open the API reference with a key: {tryItFailure}</FormError>
      ) : null}
      <div className="form__actions">
        <Link href="/developers/keys/new" className="button">
          Create a key
        </Link>
        <form action={tryInReference}>
          <button type="submit" className="button button--secondary">
            Try it in the API reference
          </button>
        </form>
      </div>
      <p className="field__hint">
        "Try it" opens the API reference with a new test key that only reads and expires within the
        hour, ready in every "Test Request" form. It is listed below as "API reference".
      </p>
      {keys.data.length === 0 ? (
        <p className="notice">Your organisation has no keys yet. Create one to call the API.</p>
      ) : (
        <TableScroll label="Keys">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key starts with</th>
                <th scope="col">Mode</th>
                <th scope="col">Access</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((key) => (
                <tr key={key.id}>
                  <th scope="row">{key.name}</th>
                  <td>
                    <code>{key.start}…</code>
                  </td>
                  <td>{key.mode === 'live' ? 'Live' : 'Test'}</td>
                  <td>{key.readOnly ? 'Read-only' : 'Read and write'}</td>
                  <td>
                    <StoreTime at={key.createdAt} />
                  </td>
                  <td>{key.lastUsedAt ? <StoreTime at={key.lastUsedAt} /> : 'Never'}</td>
                  <td>{key.expiresAt ? <StoreTime at={key.expiresAt} /> : 'Never'}</td>
                  <td>
                    <KeyStatus apiKey={key} nowMs={nowMs} />
                  </td>
                  <td className="data-table__actions">
                    {key.status === 'active' ? (
                      <>
                        <Link href={`/developers/keys/${key.id}/roll`}>
                          Roll<span className="visually-hidden"> {key.name}</span>
                        </Link>
                        <Link href={`/developers/keys/${key.id}/revoke`}>
                          Revoke<span className="visually-hidden"> {key.name}</span>
                        </Link>
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
};

export default KeysPage;
