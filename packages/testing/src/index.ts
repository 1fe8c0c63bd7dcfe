export { CHROMIUM_ARGS, chromiumLaunchOptions, DEFAULT_CHROMIUM_PATH } from './browser';
export {
  freePort,
  probeHttp,
  runProcess,
  startProcess,
  type TExit,
  type THttpWaitOptions,
  type TLineWaitOptions,
  type TManagedProcess,
  type TOutputStream,
  type TProcessOptions,
  type TWaitOptions,
  waitForHttp,
} from './processes';
