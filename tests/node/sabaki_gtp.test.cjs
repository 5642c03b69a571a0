// tsumi gtp driven by Sabaki's own GTP library (@sabaki/gtp 3.0.0), the way Sabaki drives
// an analysis engine (SabakiHQ/Sabaki src/modules/sabaki.js, analyzeMove): it picks the
// first of its setting `engines.analyze_commands` = [analyze, kata-analyze, lz-analyze]
// that the engine lists, sends `<command> <colour> <interval>`, reads `info move ...`
// lines through the library's subscriber, and ends the analysis by sending the next
// command. Run by .ci/run after `npm install`: TSUMI_BIN names the binary.
'use strict'

const test = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const {Controller} = require('@sabaki/gtp')

const bin =
  process.env.TSUMI_BIN ||
  path.join(__dirname, '..', '..', 'target', 'debug', 'tsumi')

// What Sabaki sends, in order (the transcript this test replays).
const TRANSCRIPT = [
  'list_commands',
  'boardsize 3',
  'clear_board',
  'komi 7.5',
  'analyze B 5',
  'name',
  'genmove_analyze B 5',
  'showboard',
]

// Sabaki's reading of one analysis line (src/modules/analysis.js, in outline): records
// split at `info`, key-value pairs up to `pv`, then the PV's vertices; a float win rate
// (with a decimal point) is a probability, an integer one ten-thousandths.
function parseAnalysis(line) {
  return line
    .split(/\s*info\s+/)
    .slice(1)
    .map((record) => {
      let [head, pv] = record.split(/\s+pv\s+/)
      let words = head.trim().split(/\s+/)
      let fields = {}
      for (let i = 0; i + 1 < words.length; i += 2) fields[words[i]] = words[i + 1]
      let w = fields.winrate
      return {
        move: fields.move,
        visits: +fields.visits,
        winrate: w.includes('.') ? +w * 100 : +w / 100,
        scoreLead: fields.scoreLead == null ? null : +fields.scoreLead,
        pv: (pv || '').trim().split(/\s+/),
      }
    })
}

function command(text) {
  let [name, ...args] = text.split(' ')
  return {name, args}
}

test('Sabaki sees every 3x3 move proven, with exact margins, and stops the analysis', async () => {
  let engine = new Controller(bin, ['gtp', '--size', '3', '--tt-mib', '8'])
  let sent = []
  engine.on('command-sent', ({command}) =>
    sent.push([command.name, ...command.args].join(' ')),
  )
  engine.start()
  try {
    let list = await engine.sendCommand(command(TRANSCRIPT[0]))
    assert.equal(list.error, false)
    let commands = list.content.split('\n')
    let chosen = ['analyze', 'kata-analyze', 'lz-analyze'].find((c) => commands.includes(c))
    assert.equal(chosen, 'analyze', 'Sabaki picks its own dialect first')
    for (let c of TRANSCRIPT.slice(1, 4)) {
      let r = await engine.sendCommand(command(c))
      assert.equal(r.error, false, c)
    }

    // Analyse until a line shows all ten moves proven (win rate 0 % or 100 %).
    let lines = []
    let resolve
    let proven = new Promise((r) => (resolve = r))
    let analysis = engine.sendCommand(command(TRANSCRIPT[4]), ({line}) => {
      if (!line.startsWith('info ')) return
      lines.push(line)
      let records = parseAnalysis(line)
      if (records.length === 10 && records.every((r) => r.winrate === 0 || r.winrate === 100))
        resolve(records)
    })
    let timer
    let records = await Promise.race([
      proven,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('no proven line in 60 s')), 60000)
      }),
    ])
    clearTimeout(timer)
    // Any next command ends the analysis (its reply comes after the analysis').
    let name = engine.sendCommand(command(TRANSCRIPT[5]))
    let response = await analysis
    assert.equal(response.error, false)
    assert.equal((await name).content, 'tsumi')

    // data/go-psk-values.tsv: centre +9, a side +3, a corner -9; at komi 7.5 Black's lead
    // after each move is the value minus 7.5.
    let value = (m) => (m === 'B2' ? 9 : ['B1', 'A2', 'C2', 'B3'].includes(m) ? 3 : -9)
    assert.equal(records[0].move, 'B2')
    assert.equal(records[0].winrate, 100)
    for (let r of records.filter((r) => r.move !== 'pass')) {
      assert.equal(r.scoreLead, value(r.move) - 7.5, r.move)
      assert.equal(r.winrate, r.scoreLead > 0 ? 100 : 0, r.move)
      assert.ok(r.visits > 0)
      assert.equal(r.pv[0], r.move)
    }
    assert.ok(lines.length >= 1)

    // genmove_analyze streams, then ends with `play <vertex>`.
    let last = null
    let g = await engine.sendCommand(command(TRANSCRIPT[6]), ({line}) => {
      if (line.trim() !== '') last = line
    })
    assert.equal(g.error, false)
    assert.match(g.content, /(^|\n)play B2$/)
    assert.equal(last, 'play B2')
    let board = await engine.sendCommand(command(TRANSCRIPT[7]))
    assert.match(board.content, /X/)
    assert.deepEqual(sent, TRANSCRIPT)
  } finally {
    await engine.stop()
  }
})
