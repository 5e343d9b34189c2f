export default function CustomerDetail (_props: { id: number }) { return null }
