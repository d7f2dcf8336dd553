import { NodesList } from '@/features/admin-nodes/components/nodes-list';

export default function AdminNodesRoute() {
  return <NodesList />;
}
