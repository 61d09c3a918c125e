-- AlterTable
ALTER TABLE "two_factors" ADD COLUMN     "last_used_step" INTEGER;
