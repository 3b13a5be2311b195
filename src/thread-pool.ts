// Imported first by main.ts. Bun runs file reads and sharp's image work on one pool of threads
// sized from UV_THREADPOOL_SIZE when the process starts, and later changes are not read: with the
// default (the core count, two on a small box) page reads waited 20-35 ms behind covers. So when
// the variable is unset, the process replaces itself (execve: same pid, same stdio, no parent
// left waiting) with the same command and UV_THREADPOOL_SIZE=16, before anything else runs. A
// value the user set is kept.
const POOL_SIZE = '16'

if (!process.env.UV_THREADPOOL_SIZE) {
  // The binary: its own path, its flags. The source tree: the runtime, its flags, the script.
  const args = Bun.isStandaloneExecutable
    ? process.argv.slice(2)
    : [...process.execArgv, ...process.argv.slice(1)]
  try {
    // argv[0] as the user typed it, so --help names the same command.
    process.execve!(process.execPath, [process.argv0, ...args], {
      ...process.env,
      UV_THREADPOOL_SIZE: POOL_SIZE,
    })
  } catch (error) {
    process.stderr.write(
      `tankobun: could not restart with UV_THREADPOOL_SIZE=${POOL_SIZE} (${String(error)}); page reads may wait behind thumbnails: set it yourself\n`,
    )
  }
}

export {}
