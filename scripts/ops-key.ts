/**
 * `npm run ops:key -- <operator> [--role owner|manager|support] [--channels A,B] [--label text]` (issue 31,
 * docs/operators.md "API keys"): mints an API key of an active operator on the server, without a browser, and prints it
 * once (only its SHA-256 is kept). The role defaults to the operator's and can only be lower; the channels default to
 * the operator's. Audited as the command. For automation that has no console session: the skin and settings PATCH calls
 * and every console procedure on the operator host (`Authorization: Bearer <key>`).
 */
import type { OperatorRole } from '../lib/procedure/roles';

const USAGE = 'usage: npm run ops:key -- <operator> [--role owner|manager|support] [--channels A,B] [--label text]';

function parseArgs(args: string[]): { operator: string; role?: OperatorRole; channels?: string[]; label?: string } | string {
  const rest: string[] = [];
  const out: { role?: OperatorRole; channels?: string[]; label?: string } = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = args[i + 1];
    if (arg === '--role' || arg === '--channels' || arg === '--label') {
      if (value === undefined) return `${arg} needs a value`;
      i++;
      if (arg === '--role') {
        if (!['owner', 'manager', 'support'].includes(value)) return `--role must be owner, manager or support, not ${value}`;
        out.role = value as OperatorRole;
      } else if (arg === '--channels') {
        const keys = value
          .split(',')
          .map((k) => k.trim().toUpperCase())
          .filter(Boolean);
        if (keys.some((k) => !/^[A-Z0-9]{1,64}$/.test(k))) return '--channels must be channel keys, comma-separated (A,B)';
        out.channels = keys;
      } else {
        out.label = value.slice(0, 64);
      }
    } else if (arg.startsWith('--')) {
      return `unknown option ${arg}`;
    } else {
      rest.push(arg);
    }
  }
  if (rest.length !== 1) return 'name one operator';
  return { operator: rest[0]!, ...out };
}

async function makeKey() {
  const parsed = parseArgs(process.argv.slice(2));
  if (typeof parsed === 'string') {
    console.error(`ops:key: ${parsed}\n${USAGE}`);
    process.exit(2);
  }
  const { env, EnvError } = await import('../lib/env');
  try {
    env();
  } catch (error) {
    console.error(error instanceof EnvError ? error.message : error);
    process.exit(1);
  }
  const [{ openDb }, { migrate }, { mintApiKey }] = await Promise.all([
    import('../lib/db/client'),
    import('../lib/db/migrate'),
    import('../lib/operator/api-keys'),
  ]);
  const { db, close } = openDb();
  try {
    await migrate(db);
    const { key, apiKey } = await mintApiKey(db, { ...parsed, now: new Date() });
    const scope = apiKey.role === 'owner' ? 'every channel' : apiKey.channels.join(', ');
    console.log(`API key of ${apiKey.operator} (${apiKey.role}; ${scope}), shown this once; revoke it on the Team page:`);
    console.log(`  ${key}`);
  } catch (error) {
    console.error(`ops:key: ${(error as Error).message}`);
    process.exitCode = 1;
  } finally {
    await close();
  }
}

void makeKey();
