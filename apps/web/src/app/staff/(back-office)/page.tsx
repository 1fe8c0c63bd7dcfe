import { redirect } from 'next/navigation';
import { requireStaff } from '@/lib/session';

/** /staff: the applications queue is the back office's front page. */
const StaffHome = async () => {
  await requireStaff();
  redirect('/staff/applications');
};

export default StaffHome;
