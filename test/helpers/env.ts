// What test/run.ts provides to every test file through the environment.
export interface TestEnv {
  runId: string;
  adminDatabaseUrl: string;
  templateDb: string;
  temporalAddress: string;
  testServerPath: string;
}

export function requireTestEnv(): TestEnv {
  const e = process.env;
  if (
    !e.SVC_TEST_ADMIN_DATABASE_URL ||
    !e.SVC_TEST_TEMPLATE_DB ||
    !e.TEMPORAL_ADDRESS ||
    !e.SVC_TEST_RUN_ID ||
    !e.TEMPORAL_TEST_SERVER_PATH
  ) {
    throw new Error(
      'Run tests through `npm test` (test/run.ts provides PostgreSQL, Temporal and the template database); ' +
        'for one file: `npm test -- test/path/file.test.ts`.',
    );
  }
  return {
    runId: e.SVC_TEST_RUN_ID,
    adminDatabaseUrl: e.SVC_TEST_ADMIN_DATABASE_URL,
    templateDb: e.SVC_TEST_TEMPLATE_DB,
    temporalAddress: e.TEMPORAL_ADDRESS,
    testServerPath: e.TEMPORAL_TEST_SERVER_PATH,
  };
}
