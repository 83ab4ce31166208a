import "next-auth";
import "next-auth/jwt";

declare module "next-auth" {
  interface User {
    companyId?: number;
    sessionVersion?: number;
  }
  interface Session {
    user: { id: string; companyId?: number; sessionVersion?: number; name?: string | null; email?: string | null; image?: string | null };
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    companyId?: number;
    /** users.session_version at sign-in: the session ends when the row's moves on. */
    sessionVersion?: number;
  }
}
