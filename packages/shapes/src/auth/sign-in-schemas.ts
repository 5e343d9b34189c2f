import { Type } from '@sinclair/typebox'
import { DateTime, NewPassword, Nullable, PasswordConfirmation } from '../common.js'

const Token = Type.String({ minLength: 1, maxLength: 200, description: 'The token from the link (after `#token=`).' })
const Code = Type.String({
  minLength: 1, maxLength: 40, description: 'A 6-digit code from the authenticator app, or one of the recovery codes (`abcd-efgh-ijkl-mnop`).'
})

export const EmailBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 255, examples: ['grace@example.com'] })
}, { examples: [{ email: 'grace@example.com' }] })

export const ResetPasswordBody = Type.Object({
  token: Token,
  password: NewPassword,
  password_confirmation: Type.Optional(PasswordConfirmation)
}, { examples: [{ token: 'hd_Z2V0IHlvdXIgb3duIHRva2Vu', password: 'a-new-password', password_confirmation: 'a-new-password' }] })

export const TokenOnlyBody = Type.Object({ token: Token }, { examples: [{ token: 'hd_Z2V0IHlvdXIgb3duIHRva2Vu' }] })

export const Accepted = Type.Object({ success: Type.Literal(true) }, {
  description: 'Accepted: if the address belongs to someone who can use it, a mail is on its way. The answer is the same either way.'
})

/** What a password (or magic-link) sign-in answers when it needs a second factor. */
export const SecondFactorChallenge = Type.Object({
  second_factor: Type.Object({
    challenge: Type.String({ description: 'Send it back with a code to the two-factor step. Works once, for a few minutes; it is not a session.' }),
    enrol: Type.Boolean({ description: 'True when the person must first enrol (their role requires two-factor authentication): ask for the enrolment with the challenge, then send the first code.' }),
    expires_at: DateTime
  })
}, { description: 'The password was right; a second factor is needed before a session is started.' })

export const ChallengeBody = Type.Object({ challenge: Type.String({ minLength: 1, maxLength: 200 }) }, { examples: [{ challenge: 'hd_Y2hhbGxlbmdl' }] })
export const ChallengeCodeBody = Type.Object({ challenge: Type.String({ minLength: 1, maxLength: 200 }), code: Code }, { examples: [{ challenge: 'hd_Y2hhbGxlbmdl', code: '123456' }] })
export const CodeBody = Type.Object({ code: Code }, { examples: [{ code: '123456' }] })

export const Enrolment = Type.Object({
  secret: Type.String({ description: 'The TOTP secret in base32, to type into an app by hand.' }),
  otpauth_url: Type.String({ description: '`otpauth://totp/...`: what the QR code holds.' }),
  qr_svg: Type.String({ description: 'The QR code of `otpauth_url`, an SVG document.' })
})

export const RecoveryCodes = Type.Object({
  recovery_codes: Type.Array(Type.String(), { description: 'Ten single-use codes, shown this once (only their digests are stored).' })
})

export const TwoFactorStatus = Type.Object({
  enabled: Type.Boolean(),
  required: Type.Boolean({ description: 'Whether an administrator requires two-factor authentication of your role.' }),
  recovery_codes_left: Type.Integer()
})

export const UserIdParams = Type.Object({ userId: Type.Integer({ minimum: 1, maximum: 2147483647 }) })

export const OptionalRecoveryCodes = {
  recovery_codes: Type.Optional(Nullable(Type.Array(Type.String(), {
    description: 'Present when this sign-in completed an enrolment: the ten recovery codes, shown this once.'
  })))
}
