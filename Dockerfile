# One image for every Cairn app, chosen by argument: `docker run cairn <app>` (scripts/cairn-app.mjs), e.g.
# `docker run cairn repo-service`; docker-compose.yml and deploy/kubernetes pass it the same way. Migrations:
# `docker run cairn migrate [--service <name>]`.
# Build: docker build -t cairn .

# ---- build: install everything, generate the Prisma clients, compile, then drop the dev dependencies ----------
FROM node:24-bookworm AS build
WORKDIR /app
ENV NX_DAEMON=false NX_NO_CLOUD=true CI=true
# Manifests first, so the dependency layer is cached until a package.json or the lockfile changes.
COPY package.json package-lock.json .npmrc ./
COPY apps/gateway/package.json apps/gateway/
COPY apps/identity-service/package.json apps/identity-service/
COPY apps/repo-service/package.json apps/repo-service/
COPY apps/hooks-service/package.json apps/hooks-service/
COPY apps/runners-service/package.json apps/runners-service/
COPY apps/packages-service/package.json apps/packages-service/
COPY apps/merge-check-worker/package.json apps/merge-check-worker/
COPY libs/contracts/package.json libs/contracts/
COPY libs/platform/package.json libs/platform/
COPY libs/git/package.json libs/git/
# `npm ci`: exactly the committed lockfile (it carries every platform's optional binaries).
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# ---- runtime: node + git (repo-service, merge-check-worker) + ssh-keygen + gpg (instance commit signing) ----------
FROM node:24-bookworm-slim AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends git openssh-client gnupg ca-certificates tini \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production \
    CAIRN__REPOSITORY__ROOT=/data/repositories
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/libs ./libs
COPY --from=build /app/apps ./apps
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/tools ./tools
COPY --from=build /app/scripts ./scripts
RUN mkdir -p /data/repositories /data/packages && chown -R node:node /data
# Numeric, so Kubernetes can check runAsNonRoot against it (the `node` user is 1000).
USER 1000:1000
VOLUME ["/data"]
EXPOSE 3000 2222
# tini reaps git child processes and forwards SIGTERM, so every app shuts down cleanly.
ENTRYPOINT ["/usr/bin/tini", "--", "node", "scripts/cairn-app.mjs"]
CMD ["gateway"]
