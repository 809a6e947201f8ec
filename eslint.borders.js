// Borders of src/, as import-x/no-restricted-paths zones (used by eslint.config.js).
//
// Layers, lowest first; a file imports its own layer or a lower one:
//   lib, errors           domain code without database or HTTP, and the error catalog
//   db, jobs              the database (engines, migrations, table types) and the scheduler
//   <areas>               one folder per area: handler -> service -> repository
//   http                  the Koa app, dispatch, security, the pages
//   src/*.ts              the composition root (config, services, server, main)
// Areas: every other folder of src/. An area reaches another only through its public
// surface: its module (*.module.ts, what builds it), its services (*.service.ts), its types
// (*.types.ts) and its public list (<area>.public.ts: the types, rules and storage functions
// that join the caller's transaction, each named there, so a new crossing is a visible edit). Its repositories, views, rules and handlers are its own; the HTTP layer
// may also mount its handlers (*.handler.ts). An area may read the configuration's type
// (src/config.ts) and the request types and caller guard of the HTTP layer
// (src/http/types.ts, src/http/principal-guard.ts), which handlers need.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const BOTTOM = ['lib', 'errors'];
const INFRA = ['db', 'jobs'];
const EDGE = ['http'];
// Folders that hold no code of an area (ambient declarations).
const NOT_AREAS = ['types'];
const PUBLIC = ['*.module.ts', '*.service.ts', '*.types.ts', '*.public.ts'];

export function areasOf(root) {
  const layered = new Set([...BOTTOM, ...INFRA, ...EDGE, ...NOT_AREAS]);
  return readdirSync(join(root, 'src'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !layered.has(entry.name))
    .map((entry) => entry.name)
    .sort();
}

export function borderZones(root) {
  const src = join(root, 'src');
  const areas = areasOf(root);
  const folders = (names) => names.map((name) => `${src}/${name}/**`);
  const rootFiles = `${src}/*.ts`;
  return [
    {
      target: folders(BOTTOM),
      from: [...folders([...INFRA, ...areas, ...EDGE]), rootFiles],
      message: 'src/lib and src/errors are the bottom layer: they import nothing above them.',
    },
    {
      target: folders(INFRA),
      from: [...folders([...areas, ...EDGE]), rootFiles],
      message: 'src/db and src/jobs import no area, no HTTP code and not the composition root.',
    },
    {
      target: folders(areas),
      from: [`${src}/http/**`],
      except: [`${src}/http/@(types|principal-guard).ts`],
      message: 'An area imports from src/http only its request types (types.ts) and callerOf.',
    },
    {
      target: folders(areas),
      from: [rootFiles],
      except: [`${src}/@(config).ts`],
      message: 'An area is built by the composition root; it imports only the Config type from it.',
    },
    ...areas.flatMap((area) => areaZones(src, area, areas)),
  ];
}

// Another area, the HTTP layer and the composition root see an area through its public surface.
function areaZones(src, area, areas) {
  const others = areas.filter((name) => name !== area).map((name) => `${src}/${name}/**`);
  const publicFiles = PUBLIC.map((glob) => `${src}/${area}/**/${glob}`);
  const message = `${area} is reached from outside through its public surface (${PUBLIC.join(', ')}).`;
  return [
    { target: [...others, `${src}/*.ts`], from: [`${src}/${area}/**`], except: publicFiles, message },
    {
      target: [`${src}/http/**`],
      from: [`${src}/${area}/**`],
      except: [...publicFiles, `${src}/${area}/**/*.handler.ts`],
      message: `${message} The HTTP layer may also mount its handlers.`,
    },
  ];
}
