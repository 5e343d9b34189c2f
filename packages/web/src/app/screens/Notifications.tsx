export default function Notifications () { return null }
