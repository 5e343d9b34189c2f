export default function KnowledgeBase () { return null }
