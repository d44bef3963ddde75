// CI helper: `node scripts/ci-database.js create|drop <name>` on the PostgreSQL at CI_POSTGRES_URL
// (default postgres://postgres@127.0.0.1:5432/postgres). `probe` exits 0 when that server answers.
const { Client } = require('pg');

const [action, name] = process.argv.slice(2);
const url = process.env.CI_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

async function main() {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    if (action === 'create') await client.query(`CREATE DATABASE "${name}"`);
    else if (action === 'drop') await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    else if (action !== 'probe') throw new Error(`unknown action ${action}`);
  } finally {
    await client.end();
  }
}

main().catch((error) => {
  console.error(`ci-database ${action}: ${error.message}`);
  process.exit(1);
});
