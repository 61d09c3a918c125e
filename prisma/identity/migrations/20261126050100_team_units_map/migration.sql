-- AlterTable
ALTER TABLE "teams" ADD COLUMN     "units_map" JSONB NOT NULL DEFAULT '{}';
