import type { TOrderStatus } from '@pets/contract';
import type { PoolClient } from 'pg';

/**
 * One order whose status changed in a transition's transaction: the order the request named, or
 * one changed with it (the others waitlisted by an approval, declined by a completion). `from` is
 * absent for a placement.
 */
export type TOrderChange = {
  orderId: number;
  petId: number;
  from?: TOrderStatus | undefined;
  to: TOrderStatus;
};

/**
 * Every order change goes through here, inside the transaction that made it (`client` is its
 * connection), once per transaction with all of its changes, the named order first, then the
 * others in arrival (id) order. The one place for what a change must cause besides itself
 * (an outbox row for the emails): written here, it commits or rolls back with the change.
 * Nothing yet.
 */
export const recordOrderChanges = async (
  _client: PoolClient,
  _changes: readonly TOrderChange[],
): Promise<void> => {};
