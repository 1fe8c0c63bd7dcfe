/**
 * Refusals more than one repository raises, defined once. Recognised by their `kind`, not with
 * `instanceof`: a test runner that loads this package's files both natively and through its own
 * module loader has two copies of a class, and a caller must not turn a refusal into a 500 for it.
 */

/** The animal named does not exist: nothing was written. */
export class UnknownPetError extends Error {
  readonly kind = 'unknown-pet';

  constructor(readonly petId: number) {
    super(`no animal has id ${petId}`);
  }
}

export const isUnknownPet = (error: unknown): error is UnknownPetError =>
  error instanceof Error && (error as { kind?: unknown }).kind === 'unknown-pet';
