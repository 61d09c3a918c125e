-- AlterTable
ALTER TABLE "repositories" ADD COLUMN     "trust_model" TEXT NOT NULL DEFAULT 'default';
