# The Node.js both stages run: 24, an LTS line with security fixes until 2028-04-30, on Debian 13 (trixie), whose
# support outlasts it. Not yet 26, the newest LTS line: its V8 (14.6, in 26.12.1) answers some Unicode patterns
# wrongly (/[^a]$/u on an astral character), which the unit specs catch; the image moves to 26 once
# `.ci/node-line 26` passes whole. CI proves this line besides the machine's own (.ci/run hands it to
# .ci/node-line), and `npm run check:docker` fails unless package.json declares it. Moving it: docs/operations.md,
# "The runtime".
ARG NODE_IMAGE=node:24-trixie-slim

# --- Stage 1: build ---------------------------------------------------------------------------------------
# Full install (dev dependencies included: TypeScript), then compile to dist/.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# The `npm install` below runs install scripts, and that of @scarf/scarf (a runtime dependency: @nestjs/swagger ->
# swagger-ui-dist) would report the install to its vendor. This turns that report off.
ENV SCARF_ANALYTICS=false

# Lockfile first so the dependency layer is cached until package*.json changes.
# `npm install` with the lock rather than `npm ci`: the lock does not list other platforms' optional binaries
# (see .ci/run), which `npm ci` insists on; every listed package still installs at its locked version.
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund

# Sources (filtered by .dockerignore), then tsc -> dist/src/main.js, dist/ormconfig.js, and the Gateway Management
# console (console/, Vite) -> dist/console, which the service serves under /console. `build:service`, not `build`:
# the receiver kit (packages/, left out of the context) is no part of the image. `npm run check:docker` (CI) runs
# these commands on the context this file gets.
COPY . .
RUN npm run build:service && test -f dist/console/index.html

# --- Stage 2: runtime -------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app

# Production dependencies only, without install scripts: the one runtime dependency that has one is @scarf/scarf,
# whose postinstall only reports the install to its vendor (@swc/core and @parcel/watcher have one too, but are
# dev dependencies, not installed here).
COPY package.json package-lock.json ./
RUN npm install --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

COPY --from=build /app/dist ./dist
# `npm run gateway -- <command>` (the command line) starts from this launcher; the build is already here.
COPY --from=build /app/scripts/gateway.js ./scripts/gateway.js

# Default DATA_DIR (.data) must be writable by the non-root user; production itself uses DATABASE_URL.
RUN mkdir -p .data && chown node:node .data
USER node

EXPOSE 3000
# For a plain `docker run` (compose and deploy/k8s define their own probes): the image has no curl, so Node's own
# fetch asks /readyz (database, migrations and Redis answer), as docker-compose.yml does.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/src/main.js"]
