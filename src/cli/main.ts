// The `pixgate` command (package.json bin, through bin/pixgate.mjs). One subcommand so far:
// `pixgate listen`. Arguments by node:util's parseArgs (no library needed for four options).
import { parseArgs } from 'node:util';
import { listen, ListenError } from './listen';

const USAGE = `Usage: pixgate listen --forward-to <url> [--events <type>...] [--url <pixgate url>] [--app-id <appID>]

Forwards the events of a pixgate company to a URL on this machine, signed as webhook
deliveries are (X-Pixgate-Signature with the secret printed at start), one line per event.

  --forward-to, -f  where each event is POSTed (e.g. http://localhost:3000/hooks)
  --events, -e      only these event types (repeat it, or separate with commas); all when absent
  --url             the pixgate server (default: PIXGATE_URL, else http://localhost:8080)
  --app-id          the appID of an application with the scope EVENT_GET_LIST
                    (default: PIXGATE_APP_ID)
  --help, -h        this text
`;

// Exit codes: 0 stopped (Ctrl-C), 1 refused by the server, 2 wrong usage.
export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command !== 'listen') return usageError(`unknown command ${command}`);
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        'forward-to': { type: 'string', short: 'f' },
        events: { type: 'string', short: 'e', multiple: true },
        url: { type: 'string' },
        'app-id': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return usageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return (process.stdout.write(USAGE), 0);
  // `--events A B`: the words after --events are more types.
  if (positionals.length && !values.events) return usageError(`unexpected ${positionals.join(' ')}`);
  const types = [...(values.events ?? []), ...positionals].flatMap((t) => t.split(',')).filter(Boolean);
  const appId = values['app-id'] ?? env.PIXGATE_APP_ID;
  if (!appId) return usageError('no appID: set PIXGATE_APP_ID or pass --app-id');
  if (!values['forward-to']) return usageError('--forward-to <url> is required');
  let forwardTo: URL;
  let baseUrl: string;
  try {
    forwardTo = new URL(values['forward-to']);
    baseUrl = new URL(values.url ?? env.PIXGATE_URL ?? 'http://localhost:8080').href.replace(/\/+$/, '');
  } catch {
    return usageError('--forward-to and --url (PIXGATE_URL) must be absolute http(s) URLs');
  }
  return run({ baseUrl, appId, forwardTo, types });
}

async function run(options: { baseUrl: string; appId: string; forwardTo: URL; types: string[] }): Promise<number> {
  const stop = new AbortController();
  const quit = () => stop.abort();
  process.once('SIGINT', quit);
  process.once('SIGTERM', quit);
  try {
    await listen({ ...options, print: (line) => process.stdout.write(`${line}\n`), signal: stop.signal });
    return 0;
  } catch (error) {
    if (!(error instanceof ListenError)) throw error;
    process.stderr.write(`pixgate listen: ${error.message}\n`);
    return 1;
  } finally {
    process.off('SIGINT', quit);
    process.off('SIGTERM', quit);
  }
}

function usageError(message: string): number {
  process.stderr.write(`pixgate: ${message}\n\n${USAGE}`);
  return 2;
}
