import { spawnSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestContext } from 'node:test'
import { freePort } from './free-port.js'

const DOVECOT = '/usr/sbin/dovecot'

function uidOf (name: string): { uid: number, gid: number } | null {
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith(`${name}:`))
  const [, , uid, gid] = line?.split(':') ?? []
  return uid === undefined || gid === undefined ? null : { uid: Number(uid), gid: Number(gid) }
}

/**
 * A real IMAP server for one test: Debian's dovecot (installed by .ci/run),
 * with its own configuration, directories and port, stopped afterwards.
 * Null when dovecot is not installed or the test does not run as root.
 */
export async function startDovecot (t: TestContext): Promise<{ url: string, host: string, port: number, user: string, pass: string } | null> {
  const owner = uidOf('dovecot')
  if (!existsSync(DOVECOT) || owner === null || process.getuid?.() !== 0) return null
  const dir = mkdtempSync(join(tmpdir(), 'helpdesk-dovecot-'))
  // Dovecot's own users (auth, mail) must reach the password file and the mail directory.
  chmodSync(dir, 0o755)
  for (const sub of ['run', 'state', 'home']) mkdirSync(join(dir, sub))
  chownSync(join(dir, 'home'), owner.uid, owner.gid)
  const port = await freePort()
  writeFileSync(join(dir, 'passwd'), 'helpdesk:{PLAIN}mailbox-secret\n')
  writeFileSync(join(dir, 'dovecot.conf'), `
protocols = imap
listen = 127.0.0.1
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
passdb {
  driver = passwd-file
  args = ${dir}/passwd
}
userdb {
  driver = static
  args = uid=dovecot gid=dovecot home=${dir}/home/%u
}
mail_location = maildir:~/Maildir
first_valid_uid = 1
service imap-login {
  inet_listener imap {
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
  chroot =
}
service anvil {
  chroot =
}
`)
  // No pipes: the daemon would hold them open and spawnSync would wait for it.
  const started = spawnSync(DOVECOT, ['-c', join(dir, 'dovecot.conf')], { stdio: 'ignore' })
  if (started.status !== 0) throw new Error(`dovecot did not start: ${existsSync(join(dir, 'dovecot.log')) ? readFileSync(join(dir, 'dovecot.log'), 'utf8') : `exit ${String(started.status)}`}`)
  t.after(() => {
    spawnSync(DOVECOT, ['-c', join(dir, 'dovecot.conf'), 'stop'], { stdio: 'ignore' })
    rmSync(dir, { recursive: true, force: true })
  })
  // Wait until it accepts connections.
  for (let i = 0; i < 50; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createServer().listen(port, '127.0.0.1')
      socket.once('listening', () => { socket.close(() => { resolve(false) }) })
      socket.once('error', () => { resolve(true) })
    })
    if (ok) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { url: `imap://helpdesk:mailbox-secret@127.0.0.1:${port}/INBOX`, host: '127.0.0.1', port, user: 'helpdesk', pass: 'mailbox-secret' }
}
