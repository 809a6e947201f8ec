# pixgate as `make run` starts it, in a container: both APIs on $PORT (8080), on the Postgres of
# DATABASE_URL, or on the embedded database in /data when it is unset.
#   docker build -t pixgate .
#   docker run -p 8080:8080 -v pixgate-data:/data pixgate         # embedded database
#   docker compose up                                              # with Postgres (docker-compose.yml)

# Build stage: production dependencies exactly as package-lock.json says, and the embedded
# database templates (a new data folder then starts from a migrated cluster, as after make install).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --loglevel=error
COPY tsconfig.json ./
COPY src ./src
COPY generated ./generated
COPY specs ./specs
COPY docs ./docs
COPY scripts/prepare-embedded.ts ./scripts/
COPY scripts/build.ts ./scripts/
RUN ./node_modules/.bin/tsx scripts/prepare-embedded.ts && ./node_modules/.bin/tsx scripts/build.ts

# Runtime stage: the same files without npm's cache, run by the unprivileged `node` user.
FROM node:20-bookworm-slim
# PIXGATE_HOST: a container is reached through its published port, so it listens on every
# interface of its own network namespace (the server's default is the loopback).
ENV NODE_ENV=production \
    PORT=8080 \
    PIXGATE_HOST=0.0.0.0 \
    PIXGATE_DATA_DIR=/data \
    NODE_OPTIONS="--max-semi-space-size=16 --v8-pool-size=1"
WORKDIR /app
COPY --from=build --chown=root:root /app /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
# Ready when the database answers (GET /readyz); liveness alone is GET /healthz.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The bundle scripts/build.ts made, as make run runs it; SIGTERM reaches node directly (exec
# form) and stops the server cleanly.
CMD ["node", "dist/main.js"]
