// Stops `npm start` and `npm test` at once, with one line naming the fix, when the running Node is
// older than the root package.json's `engines.node` (a `>=X.Y.Z` range, read from there rather than
// written here). Exits 0 without a word otherwise.
//
// Written in syntax every Node version parses (CommonJS, `var`, no newer syntax or `node:`
// specifiers), so that an old Node reaches the message instead of a syntax error.
//
// TOOLMARK_NODE_VERSION, when set, stands in for the running version; it exists for the tests.
'use strict'
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS, for the oldest Node */

var fs = require('fs')
var path = require('path')

/** The numbers of `X.Y.Z` at the start of `text` (a leading `v` is allowed), or null. */
function parseVersion(text) {
  var match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(String(text).trim())
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null
}

/** Whether version `a` is older than version `b`. */
function older(a, b) {
  for (var i = 0; i < 3; i++) {
    if (a[i] !== b[i]) return a[i] < b[i]
  }
  return false
}

function fail(line) {
  process.stderr.write('toolmark: ' + line + '\n')
  process.exit(1)
}

var manifestPath = path.join(__dirname, '..', 'package.json')
var range = (JSON.parse(fs.readFileSync(manifestPath, 'utf8')).engines || {}).node
var rangeMatch = /^\s*>=\s*(\S+)\s*$/.exec(range || '')
var minimum = rangeMatch ? parseVersion(rangeMatch[1]) : null
if (!minimum) {
  fail('package.json engines.node must read ">=X.Y.Z" (it reads ' + JSON.stringify(range) + ')')
}

var foundText = process.env.TOOLMARK_NODE_VERSION || process.version
var found = parseVersion(foundText)
if (!found) fail('cannot read the Node version "' + foundText + '"')

if (older(found, minimum)) {
  var needed = minimum[2] === 0 ? minimum[0] + '.' + minimum[1] : minimum.join('.')
  var fix = 'run `nvm use` (it reads .nvmrc) or install Node ' + minimum[0] + ', then try again'
  fail('Node ' + needed + ' or newer is needed (found v' + found.join('.') + '); ' + fix)
}
