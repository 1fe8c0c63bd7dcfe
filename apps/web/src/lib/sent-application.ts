import 'server-only';
import { sealData, unsealData } from 'iron-session';
import { cookies } from 'next/headers';
import { webConfig } from '../env';

/**
 * What the confirmation page may show: the application the apply action has just placed, handed
 * over in a sealed, short-lived cookie through the form's own redirect. The confirmation never
 * believes its address, so `/applications/sent?reference=A-999` thanks nobody for nothing.
 */
export type TSentApplication = {
  orderId: number;
  petId: number;
  petName: string;
  /** The address the confirmation email went to, when the application waits for it. */
  confirmBy?: string | undefined;
};

const COOKIE = 'pets_application_sent';
/** Long enough to reload the confirmation; the status page keeps the rest. */
const LIFETIME_SECONDS = 60 * 60;
export const SENT_PATH = '/applications/sent';

/** Server actions only (it writes a cookie). */
export const rememberSentApplication = async (sent: TSentApplication): Promise<void> => {
  const sealed = await sealData(sent, {
    password: webConfig().sessionSecret,
    ttl: LIFETIME_SECONDS,
  });
  (await cookies()).set(COOKIE, sealed, {
    httpOnly: true,
    sameSite: 'lax',
    secure: webConfig().isHttps,
    path: SENT_PATH,
    maxAge: LIFETIME_SECONDS,
  });
};

export const sentApplication = async (): Promise<TSentApplication | undefined> => {
  const sealed = (await cookies()).get(COOKIE)?.value;
  if (!sealed) {
    return undefined;
  }
  try {
    const sent = await unsealData<Partial<TSentApplication>>(sealed, {
      password: webConfig().sessionSecret,
      ttl: LIFETIME_SECONDS,
    });
    return typeof sent.orderId === 'number' &&
      typeof sent.petId === 'number' &&
      typeof sent.petName === 'string'
      ? {
          orderId: sent.orderId,
          petId: sent.petId,
          petName: sent.petName,
          confirmBy: typeof sent.confirmBy === 'string' ? sent.confirmBy : undefined,
        }
      : undefined;
  } catch {
    return undefined;
  }
};
