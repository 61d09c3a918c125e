# One image for every Cairn app; docker-compose.yml picks the app with `command: node apps/<app>/dist/main.js`.
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
RUN mkdir -p /data/repositories /packages && chown -R node:node /data /packages
USER node
VOLUME ["/data"]
EXPOSE 3000 2222
# tini reaps git child processes and forwards SIGTERM, so every app shuts down cleanly.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "apps/gateway/dist/main.js"]
