# syntax=docker/dockerfile:1
# The mm daemon image. Build:  docker build -t pm-market-maker .
# The demo against the embedded simulator:  docker run --rm -p 9464:9464 pm-market-maker run
# Run (live): mount a config at /config/config.yaml and pass secrets as environment variables
# (the config refers to them as ${MM_API_KEY}, ${MM_WALLET_1_KEY}, ...):
#   docker run --rm -p 9464:9464 \
#     -v "$PWD/my-live.yaml:/config/config.yaml:ro" -v "$PWD/keys:/config/keys:ro" \
#     -e MM_BASE_URL -e MM_API_KEY -e MM_WALLET_1_ADDRESS -e MM_WALLET_1_KEY -e MM_ADMIN_TOKEN \
#     pm-market-maker
# The whole stack (daemon, Prometheus, Alertmanager, Grafana): docker compose up (docker-compose.yaml).
#
# Metrics: MM_METRICS_HOST=0.0.0.0 below overrides the config's metrics.host (the template's 127.0.0.1
# would be unreachable through a published port). Keep the port 9464, or set MM_METRICS_PORT: the
# HEALTHCHECK probes that port.
# Key files: the process runs as uid 1000 (user node) and refuses a key file open to group or others, so
# key files are mode 600 and owned by uid 1000, in a directory only uid 1000 enters:
#   chmod 700 keys && chmod 600 keys/*.key && sudo chown -R 1000 keys
# The same rule in README.md ("Docker") and configs/live.example.yaml.

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
# Listen beyond loopback so a published port (and Prometheus in compose) reaches /metrics, /health, /ready.
ENV MM_METRICS_HOST=0.0.0.0
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY configs ./configs
# bin/mm.js runs dist/ here: there is no src/ (and no tsx) in this stage.
USER node
EXPOSE 9464
# node:20-slim has no curl; node 20 has fetch. /health is served by the daemon's metrics server, on
# MM_METRICS_PORT when set (else 9464, the config's default: keep metrics.port at 9464 in a config).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.MM_METRICS_PORT||9464)+'/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"]
ENTRYPOINT ["node", "bin/mm.js"]
CMD ["run", "--config", "/config/config.yaml"]
