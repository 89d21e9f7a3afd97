#!/usr/bin/env node
// The `pbx-api` command. A file of its own, kept executable in git, so that no build step (tsc
// writes dist/ without the executable bit) can leave `npx pbx-api` unrunnable.
import '../dist/bundle/cli.js';
