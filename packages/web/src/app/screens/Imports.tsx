export default function Imports () { return null }
