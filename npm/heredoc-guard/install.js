'use strict';
// postinstall of the heredoc-guard npm package: puts the native binary of this platform's
// package (an optionalDependency, @heredoc-guard/<platform>-<arch>) at bin/heredoc-guard,
// the file npm links onto PATH. The command on PATH is then the binary itself, and the
// hook that `heredoc-guard install` writes runs it by its path: no node process runs when
// the agent calls the hook. A hard link where the file system allows it, else a copy;
// either way the path stays the same across upgrades.

const fs = require('fs');
const path = require('path');

const PLATFORMS = {
  'linux-x64': '@heredoc-guard/linux-x64',
  'linux-arm64': '@heredoc-guard/linux-arm64',
  'darwin-x64': '@heredoc-guard/darwin-x64',
  'darwin-arm64': '@heredoc-guard/darwin-arm64',
};

function fail(message) {
  console.error(`heredoc-guard: ${message}`);
  console.error(
    'Install it with cargo instead (cargo install --locked heredoc-guard), or see https://github.com/heredoc-guard/heredoc-guard#install'
  );
  process.exit(1);
}

const key = `${process.platform}-${process.arch}`;
const pkg = PLATFORMS[key];
if (!pkg) {
  fail(`no prebuilt binary for ${key} (there are: ${Object.keys(PLATFORMS).join(', ')}).`);
}

let source;
try {
  source = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), 'bin', 'heredoc-guard');
} catch (e) {
  fail(`${pkg} is not installed (npm skipped the optional dependency: --omit=optional or --no-optional?): ${e.message}`);
}
if (!fs.existsSync(source)) {
  fail(`${source} is missing from ${pkg}.`);
}

const target = path.join(__dirname, 'bin', 'heredoc-guard');
const tmp = `${target}.${process.pid}.tmp`;
try {
  fs.rmSync(tmp, { force: true });
  try {
    fs.linkSync(source, tmp);
  } catch (_) {
    fs.copyFileSync(source, tmp);
  }
  fs.chmodSync(tmp, 0o755);
  fs.renameSync(tmp, target);
} catch (e) {
  fs.rmSync(tmp, { force: true });
  fail(`cannot put the native binary at ${target}: ${e.message}`);
}
