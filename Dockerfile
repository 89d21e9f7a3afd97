# pbx-api: a multi-stage image. The build stage compiles TypeScript and bundles it (npm run build)
# with every dependency; the runtime stage holds the bundled server and production dependencies
# only, runs as the image's unprivileged `node` user, and reports healthy once `/ready` does
# (database reachable, migrations applied). Configuration comes from the environment: see .env.example.
# On Node 22 and later the SQLite driver (better-sqlite3 13) ships its binaries inside the package,
# so the install runs no scripts and the image needs no compiler (the Node 20 driver, an optional
# dependency, is left unbuilt).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY scripts ./scripts
COPY src ./src
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/bin ./bin
COPY --from=build /app/dist/bundle ./dist/bundle
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "bin/pbx-api.js", "serve"]
