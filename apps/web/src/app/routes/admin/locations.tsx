import { LocationsList } from '@/features/admin-locations/components/locations-list';

export default function AdminLocationsRoute() {
  return <LocationsList />;
}
