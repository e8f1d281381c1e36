// The doctor tests' common start: the doctor's generated home in a temp folder with a core service on it.
import { join } from 'node:path';
import { createStudioService, type StudioService } from '../../../electron/core/service/service';
import { createDoctorHome, type DoctorHome } from '../../fixtures/doctor-home';
import { makeTempDir } from '../helpers';

export interface DoctorService {
  temp: { dir: string; cleanup: () => Promise<void> };
  home: DoctorHome;
  service: StudioService;
  /** Stops the service and removes the temp folder. */
  dispose(): Promise<void>;
}

/** `callerPaths: 'person'` when a test names project folders as typed on the command line. */
export async function openDoctorService(options: { callerPaths?: 'person' } = {}): Promise<DoctorService> {
  const temp = await makeTempDir();
  const home = await createDoctorHome(temp.dir);
  const service = createStudioService({
    home: { codexHome: home.codexHome, source: 'flag' },
    dataDir: join(temp.dir, 'data'),
    host: 'serve',
    appVersion: 'test',
    watch: false,
    log: () => undefined,
    ...options,
  });
  return {
    temp,
    home,
    service,
    dispose: async () => {
      service.dispose();
      await temp.cleanup();
    },
  };
}
