import { useNavigate, useParams } from 'react-router';
import { NotFoundPage } from '@/components/ui/screen-block';
import { type NodeTab, NodeView, nodeTabs } from '@/features/admin-nodes/components/node-view';

export default function AdminNodeViewRoute() {
  const { id = '', tab = '' } = useParams();
  const navigate = useNavigate();
  if (!/^\d{1,10}$/.test(id) || !(nodeTabs as readonly string[]).includes(tab)) {
    return <NotFoundPage onBack={() => navigate(-1)} />;
  }
  return <NodeView key={id} id={Number(id)} tab={tab as NodeTab} />;
}
