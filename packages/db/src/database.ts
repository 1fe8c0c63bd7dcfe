import { openEmbeddedDatabase, type TEmbeddedRole } from './embedded.js';

export type TDatabaseRole = TEmbeddedRole;

export type TDatabase = {
  /** Connection URL for `pg` or createPrismaClient. May hold a password: never log it. */
  url: string;
  isEmbedded: boolean;
  /** A safe description for logs: no password. */
  label: string;
  /** Embedded database: the migrations applied while opening it (it is always kept migrated). */
  appliedMigrations: string[];
  /**
   * Releases what openDatabase took: for the owner of the embedded database, stops serving it,
   * flushes PGlite to disk and frees DATA_DIR. Close your own Prisma client or pool first.
   */
  close: () => Promise<void>;
};

/** What openDatabase needs of the configuration (the API's config has both). */
export type TDatabaseConfig = {
  /** A postgresql:// URL, or undefined for the embedded database. */
  DATABASE_URL?: string | undefined;
  /** Absolute path of the embedded database's directory (DATA_DIR). */
  dataDir: string;
};

export type TOpenDatabaseOptions = {
  /**
   * `server`: the long-running API, which owns the embedded database. `tool`: a short-lived
   * command, which uses the running owner or owns the database for its own lifetime.
   */
  role: TDatabaseRole;
  /** Progress lines for people, e.g. while a new embedded database is created. */
  onInfo?: (message: string) => void;
};

/** The URL with its password replaced, for logs and messages. */
export const redactDatabaseUrl = (url: string): string => {
  try {
    const parsed = new URL(url);
    if (parsed.password) {
      parsed.password = '***';
    }
    return parsed.toString();
  } catch {
    return 'postgresql://(unparseable URL)';
  }
};

/**
 * The database this process should use: DATABASE_URL when it is set, otherwise the embedded
 * PostgreSQL in DATA_DIR (see ./embedded.ts), migrated to the latest schema. Either way the
 * result is a postgresql:// URL for the ordinary `pg` driver: one code path for both.
 */
export const openDatabase = async (
  config: TDatabaseConfig,
  { role, onInfo }: TOpenDatabaseOptions,
): Promise<TDatabase> => {
  if (config.DATABASE_URL) {
    return {
      url: config.DATABASE_URL,
      isEmbedded: false,
      label: redactDatabaseUrl(config.DATABASE_URL),
      appliedMigrations: [],
      close: async () => {},
    };
  }
  const embedded = await openEmbeddedDatabase(config.dataDir, { role, onInfo });
  return {
    url: embedded.url,
    isEmbedded: true,
    appliedMigrations: embedded.appliedMigrations,
    label: `embedded PostgreSQL (PGlite) in ${config.dataDir}${embedded.isOwner ? '' : ', served by another process'}`,
    close: embedded.close,
  };
};
