// `import --plan` for a short-lived host (the CLI), as `import.plan` answers it (the same planner, the same earlier
// imports, the plan as it travels) without the service and its channels: their modules and the contract's check of a
// 10,000-file plan were a tenth of the command. The planner's own modules, not the import barrel (its draft schemas
// load zod, its proposals the review engine).
import type { HomeInfo } from '../../../../shared/domain';
import type { ImportPlan, ImportPlanInput } from '../../../../shared/import';
import { earlierImportsOf } from '../../import/earlier';
import { forTransport, planImport } from '../../import/plan';
import { openStudioDb } from '../../studio-db';

export async function planImportForCommand(
  input: ImportPlanInput,
  home: HomeInfo,
  dataDir: string,
  env: NodeJS.ProcessEnv,
): Promise<ImportPlan> {
  const db = openStudioDb(dataDir);
  try {
    // A thread of its own: the sources are read synchronously, the scan and lint stay in it (ImportEnv.sharedLoop).
    return forTransport(await planImport(input, home, { env, earlier: earlierImportsOf(db), sharedLoop: false }));
  } finally {
    db.close();
  }
}
