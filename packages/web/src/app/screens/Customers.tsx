export default function Customers () { return null }
