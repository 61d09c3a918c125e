#!/bin/sh
# Stand-in for Prisma's native schema-engine binary, which the CLI insists on downloading before any command.
# `generate`/`validate`/`format` never run it; anything that does (migrate, db push) must fail loudly, hence exit 1.
echo "schema engine unavailable (use node tools/migrate/cli.mjs)" >&2
exit 1
