export default function Categories () { return null }
