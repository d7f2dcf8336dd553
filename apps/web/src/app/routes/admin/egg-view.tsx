import { useParams } from 'react-router';
import { EggView } from '@/features/admin-nests/components/egg-view';

export default function AdminEggViewRoute() {
  const { id } = useParams();
  return <EggView key={id} eggId={Number(id)} />;
}
