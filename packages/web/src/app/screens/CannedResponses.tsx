export default function CannedResponses () { return null }
