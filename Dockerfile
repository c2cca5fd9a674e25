# syntax=docker/dockerfile:1
# The mm daemon image. Build:  docker build -t pm-market-maker .
# Run (live): mount a config at /config/config.yaml and pass secrets as environment variables
# (the config refers to them as ${MM_API_KEY}, ${MM_WALLET_1_KEY}, ...):
#   docker run --rm -p 9464:9464 \
#     -v "$PWD/my-live.yaml:/config/config.yaml:ro" -v "$PWD/keys:/config/keys:ro" \
#     -e MM_BASE_URL -e MM_API_KEY -e MM_WALLET_1_ADDRESS -e MM_WALLET_1_KEY -e MM_ADMIN_TOKEN \
#     pm-market-maker
# The demo against the embedded simulator:  docker run --rm pm-market-maker run
# In a container, set `metrics.host: 0.0.0.0` in the config so the published port reaches it.

# ---- build: full install (tsc is a dev dependency), compile src/ and strategies/ to dist/
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY strategies ./strategies
RUN npm run build

# ---- runtime: production dependencies only, compiled code, no sources
FROM node:20-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY configs ./configs
# bin/mm.js runs dist/ here: there is no src/ (and no tsx) in this stage.
USER node
EXPOSE 9464
# node:20-slim has no curl; node 20 has fetch. /health is served by the daemon's metrics server.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:9464/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"]
ENTRYPOINT ["node", "bin/mm.js"]
CMD ["run", "--config", "/config/config.yaml"]
