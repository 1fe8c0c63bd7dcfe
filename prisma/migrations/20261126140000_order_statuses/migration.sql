-- Applications, many per animal: two new order statuses. Alone in this migration because
-- PostgreSQL refuses to use an enum value in the transaction that added it, and the next
-- migration's indexes name them.

-- AlterEnum
ALTER TYPE "order_status" ADD VALUE 'waitlisted' AFTER 'placed';
ALTER TYPE "order_status" ADD VALUE 'declined' AFTER 'approved';
