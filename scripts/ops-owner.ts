/**
 * `npm run ops:owner -- <name> [--again]` (issue 31, docs/operators.md "The first owner"): makes the deployment's first
 * owner and prints their one-time enrolment link, which works once, for three days. Open it on the operator host, choose
 * a password, add the account to an authenticator app; there is no default password anywhere.
 */
async function makeOwner() {
  const args = process.argv.slice(2);
  const again = args.includes('--again');
  const [name] = args.filter((a) => a !== '--again');
  if (!name) {
    console.error('usage: npm run ops:owner -- <account name> [--again]');
    process.exit(2);
  }
  const { env, EnvError, publicOrigin } = await import('../lib/env');
  try {
    env();
  } catch (error) {
    console.error(error instanceof EnvError ? error.message : error);
    process.exit(1);
  }
  // Loaded once the environment is known good: the database client reads it.
  const [{ openDb }, { migrate }, { makeFirstOwner }] = await Promise.all([
    import('../lib/db/client'),
    import('../lib/db/migrate'),
    import('../lib/operator/first-owner'),
  ]);
  const { db, close } = openDb();
  try {
    await migrate(db);
    const { token, expiresAt } = await makeFirstOwner(db, { name, now: new Date(), again });
    console.log(
      `Owner ${name.trim().toLowerCase()} is invited. Their one-time enrolment link (works once, until ${expiresAt.toISOString()}):`,
    );
    console.log(`  ${publicOrigin(env().OPERATOR_HOST)}/enrol/${token}`);
  } catch (error) {
    console.error(`ops:owner: ${(error as Error).message}`);
    process.exitCode = 1;
  } finally {
    await close();
  }
}

void makeOwner();
