import { useParams } from 'react-router';
import { NestView } from '@/features/admin-nests/components/nest-view';

export default function AdminNestViewRoute() {
  const { id } = useParams();
  return <NestView key={id} nestId={Number(id)} />;
}
