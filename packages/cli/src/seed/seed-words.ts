/*
 * Words the volume seed writes tickets with. Lists are ordered from the most
 * to the least frequent: pickers weight them Zipf-like, so a few words (such
 * as "account") appear in a large share of tickets and most in a few, the way
 * a real help desk's text is distributed. No list holds the word "zyzzyva":
 * searches for it are guaranteed misses.
 */

export const FIRST_NAMES = [
  'Maria', 'James', 'Sofia', 'John', 'Emma', 'Liam', 'Olivia', 'Noah', 'Ava', 'Lucas', 'Mia', 'Ethan', 'Isabella', 'Mateo',
  'Amelia', 'Leo', 'Harper', 'Elijah', 'Chloe', 'Hugo', 'Yuki', 'Arjun', 'Fatima', 'Chen', 'Ingrid', 'Kwame', 'Aisha', 'Dmitri',
  'Lucia', 'Omar', 'Priya', 'Sven', 'Zara', 'Tomas', 'Nadia', 'Felix', 'Elena', 'Rafael', 'Hana', 'Ivan', 'Leila', 'Marco',
  'Greta', 'Kenji', 'Amara', 'Pablo', 'Freya', 'Samir', 'Clara', 'Nikolai', 'Ines', 'Tariq', 'Astrid', 'Diego', 'Mei', 'Jonas'
]

export const LAST_NAMES = [
  'Garcia', 'Smith', 'Müller', 'Johnson', 'Rossi', 'Kim', 'Nguyen', 'Silva', 'Brown', 'Martin', 'Kowalski', 'Tanaka', 'Novak',
  'Dubois', 'Jensen', 'Okafor', 'Patel', 'Haddad', 'Ivanova', 'Lopez', 'Andersson', 'Wilson', 'Fischer', 'Moreau', 'Costa',
  'Schmidt', 'Yilmaz', 'Nakamura', 'Berg', 'Mensah', 'Cohen', 'Fernandes', 'Larsen', 'Popescu', 'Horvat', 'Santos', 'Lambert',
  'Weber', 'Ali', 'Sato', 'Nielsen', 'Romano', 'Walker', 'Bianchi', 'Wagner', 'Herrera', 'Svensson', 'Zhang', 'Oliveira', 'Ortiz'
]

export const EMAIL_DOMAINS = ['example.com', 'example.org', 'example.net', 'mail.example', 'corp.example', 'shop.example']

export const COMPANIES = [
  'Acme Corp', 'Globex', 'Initech', 'Umbrella Trading', 'Stark Logistics', 'Wayne Foods', 'Hooli', 'Vandelay Industries',
  'Soylent Labs', 'Tyrell Design', 'Cyberdyne Retail', 'Wonka Sweets', 'Oscorp Media', 'Aperture Travel', 'Gringotts Finance'
]

export const CATEGORY_NAMES = [
  'General', 'Billing', 'Technical support', 'Accounts and login', 'Orders and shipping', 'Refunds', 'Integrations and API',
  'Mobile app', 'Feature requests', 'Security', 'Data import and export', 'Reporting', 'Partnerships', 'Onboarding',
  'Subscriptions', 'Hardware', 'Legal and privacy', 'Outages', 'Performance', 'Localization'
]

/** Things customers write about, most frequent first. */
export const SUBJECTS = [
  'account', 'order', 'invoice', 'password', 'subscription', 'payment', 'login', 'app', 'dashboard', 'report', 'export',
  'email', 'card', 'plan', 'shipment', 'refund', 'license', 'integration', 'profile', 'notification', 'download', 'upload',
  'calendar', 'team', 'workspace', 'receipt', 'coupon', 'delivery', 'webhook', 'token', 'widget', 'device', 'printer',
  'firmware', 'router', 'backup', 'import', 'template', 'invoice template', 'address', 'trial', 'upgrade', 'checkout',
  'search', 'filter', 'attachment', 'signature', 'domain', 'certificate', 'database', 'sync', 'timezone', 'language',
  'avatar', 'tablet', 'keyboard', 'scanner', 'voucher', 'gift card', 'warranty', 'contract', 'quota', 'storage',
  'bandwidth', 'dns', 'smtp', 'sso', 'ldap', 'oauth', 'sandbox', 'spreadsheet', 'csv', 'pdf', 'chart', 'kanban', 'roadmap'
]

export const PROBLEMS = [
  'is not working', 'keeps failing', 'shows an error', 'was charged twice', 'is missing', 'cannot be found', 'is very slow',
  'stopped syncing', 'looks wrong', 'was cancelled', 'never arrived', 'is locked', 'expired early', 'crashes on start',
  'times out', 'returns a blank page', 'shows the wrong total', 'does not load', 'was duplicated', 'cannot be deleted',
  'is stuck in pending', 'ignores my settings', 'shows garbled characters', 'rejects my card', 'logs me out randomly'
]

export const ACTIONS = [
  'logging in', 'paying', 'exporting', 'uploading a file', 'changing my password', 'updating my address', 'adding a user',
  'opening the report', 'checking out', 'renewing', 'syncing my phone', 'importing contacts', 'printing labels',
  'connecting the integration', 'resetting two-factor', 'downloading the invoice', 'switching plans', 'inviting my team'
]

export const EVENTS = [
  'the update', 'the last release', 'the migration', 'my upgrade', 'the weekend', 'the outage', 'changing browsers',
  'reinstalling', 'the maintenance window', 'moving offices', 'the password reset', 'the new pricing'
]

export const FILLERS = [
  'Could you please look into this?', 'This is urgent for our team.', 'Thanks in advance for your help.',
  'I have already tried clearing the cache.', 'It worked fine until yesterday.', 'Several colleagues see the same thing.',
  'I attached a screenshot of the message.', 'We use the latest version of the browser.', 'Please call me back if needed.',
  'Our accountant needs this by Friday.', 'The problem happens on both desktop and mobile.', 'Is there a workaround?',
  'I restarted the device twice.', 'Nothing in the documentation covers this.', 'Let me know what else you need.',
  'The same happened last month.', 'We are on the annual plan.', 'Kind regards.', 'Best wishes from our office.'
]

export const AGENT_REPLIES = [
  'Thanks for reaching out. I have checked your {s} and fixed the setting that caused this.',
  'Sorry for the trouble with your {s}. Could you send us the exact error message?',
  'I have escalated the {s} issue to our engineers and will update you soon.',
  'The {s} problem was caused by a known bug; a fix ships in the next release.',
  'I refunded the duplicate charge on your {s}. It takes 3 to 5 business days to appear.',
  'Please try again now: I reset the {s} on our side.',
  'Could you confirm which device and browser you use with the {s}?',
  'Your {s} is active again. Let us know if anything else comes up.'
]

export const CUSTOMER_REPLIES = [
  'Thank you, it works now.', 'I still see the same error with my {s}.', 'Here is the message: request failed with code {n}.',
  'I use the mobile app on a recent phone.', 'Any news about my {s}?', 'That fixed it, you can close the ticket.',
  'The {s} is still broken after the update.', 'Thanks for the quick answer!'
]

export const NOTES = [
  'Customer is on the legacy {s} plan; check before refunding.', 'Reproduced the {s} issue on staging.',
  'Linked to incident {n}.', 'Waiting for engineering on the {s} bug.', 'VIP account: reply within the hour.'
]
