-- Applications that wait for their adopter's confirmation by email (APPLICATION_CONFIRMATION=email).
-- Alone in this migration because PostgreSQL refuses to use an enum value in the transaction that
-- added it, and the next migration's indexes name it.

-- AlterEnum
ALTER TYPE "order_status" ADD VALUE 'unconfirmed' BEFORE 'placed';
