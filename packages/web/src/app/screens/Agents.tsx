export default function Agents () { return null }
