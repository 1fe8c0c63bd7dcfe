-- Questions emailed to adopters from the back office (issue 25), kept with the staff notes.

-- AlterTable
ALTER TABLE "order_notes" ADD COLUMN "kind" VARCHAR(16) NOT NULL DEFAULT 'note',
    ADD CONSTRAINT "order_notes_kind_check" CHECK ("kind" IN ('note', 'question'));
