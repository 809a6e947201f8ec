// The Dockerfile and docker-compose.yml are not built here (no registry for base images), so
// what would break them is checked from the files: the runtime stage installs production
// dependencies only, so every package the server imports must be one; it runs as a
// non-root user what make run runs; compose's DATABASE_URL names the Postgres it starts.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';

const ROOT = resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const dockerfile = read('Dockerfile');
const pkg = JSON.parse(read('package.json')) as {
  dependencies: Record<string, string>;
  engines: { node: string };
};

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(ROOT, path)).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

test('every package the server imports is a production dependency (the image omits dev ones)', () => {
  assert.match(dockerfile, /npm ci --omit=dev/);
  const imported = new Set<string>();
  const scripts = ['scripts/prepare-embedded.ts', 'scripts/build.ts'];
  for (const file of [...filesUnder('src'), ...filesUnder('generated'), ...scripts]) {
    const statements = /^\s*(?:import|export)\b[^;]*?\bfrom\s+'([^'.][^']*)'|\bimport\(\s*'([^'.][^']*)'\s*\)/gm;
    for (const [, fromSpec, dynamicSpec] of read(file).matchAll(statements)) {
      const spec = (fromSpec ?? dynamicSpec)!;
      if (spec.startsWith('node:')) continue;
      const parts = spec.split('/');
      imported.add(spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
    }
  }
  assert.ok(imported.size > 10, [...imported].join(' '));
  const missing = [...imported].filter((name) => !(name in pkg.dependencies));
  assert.equal(missing, [], 'imported but not in dependencies');
  assert.ok('tsx' in pkg.dependencies, 'the image prepares the embedded database with tsx');
  assert.ok('esbuild' in pkg.dependencies, 'the image bundles the server with esbuild');
});

test('multi-stage, non-root, the folders the server reads, and what make run runs', () => {
  const stages = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]!);
  assert.is(stages.length, 2, 'a build stage and a runtime stage');
  const major = Number(/node:(\d+)/.exec(stages[1]!)?.[1]);
  assert.ok(major >= Number(/\d+/.exec(pkg.engines.node)![0]), `node ${major} satisfies engines ${pkg.engines.node}`);
  assert.match(dockerfile, /^USER node$/m);
  for (const folder of ['src', 'generated', 'specs', 'docs'])
    assert.match(dockerfile, new RegExp(`^COPY ${folder} `, 'm'));
  // make run builds (its build prerequisite) and starts the bundle, as the image does
  const makefile = read('Makefile');
  const makeRun = /^run: build\n\t(.*)$/m.exec(makefile);
  assert.ok(makeRun, 'make run depends on make build');
  assert.match(makeRun[1]!, /node dist\/main\.js/);
  assert.match(/^build:.*\n\t(.*)$/m.exec(makefile)?.[1] ?? '', /tsx scripts\/build\.ts/);
  assert.match(dockerfile, /tsx scripts\/build\.ts/);
  assert.match(dockerfile, /CMD \["node", "dist\/main\.js"\]/);
  const serverOptions = /^SERVER_NODE_OPTIONS := (.*)$/m.exec(read('Makefile'))?.[1];
  assert.ok(serverOptions?.includes('--max-semi-space-size=16'), `Makefile SERVER_NODE_OPTIONS: ${serverOptions}`);
  assert.ok(
    dockerfile.includes(`NODE_OPTIONS="${serverOptions}"`),
    'the image runs with the options of the Makefile run target',
  );
  assert.match(dockerfile, /\/readyz/);
  // The server's default is the loopback: a container reached through a published port must
  // listen on every interface of its namespace.
  assert.match(dockerfile, /^\s*PIXGATE_HOST=0\.0\.0\.0\b/m);
});

test('compose: Postgres with a health check, and a DATABASE_URL that names it', () => {
  const compose = parse(read('docker-compose.yml')) as {
    services: Record<string, { environment?: Record<string, string>; depends_on?: unknown; image?: string }>;
  };
  const pg = compose.services.postgres!;
  assert.match(pg.image!, /^postgres:\d+/);
  const env = compose.services.pixgate!.environment!;
  const url = new URL(env.DATABASE_URL!);
  assert.is(url.hostname, 'postgres');
  assert.is(url.username, pg.environment!.POSTGRES_USER);
  assert.is(url.password, pg.environment!.POSTGRES_PASSWORD);
  assert.is(url.pathname, `/${pg.environment!.POSTGRES_DB}`);
  assert.equal(compose.services.pixgate!.depends_on, { postgres: { condition: 'service_healthy' } });
  assert.is(env.PIXGATE_HOST, '0.0.0.0', 'the published port reaches every interface of the container');
});

test.run();
