-- Links made before this count from 0: their charges already recorded are still counted under the link's lock.
ALTER TABLE "checkouts" ADD COLUMN "psp_charges_asked" integer DEFAULT 0 NOT NULL;