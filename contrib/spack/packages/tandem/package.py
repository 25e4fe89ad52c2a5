# A Spack package for Tandem.  With this directory's parent as a Spack repository:
#     spack repo add contrib/spack
#     spack install tandem@main                    # the git main (TANDEM_GIT: where it is)
#     spack install --no-checksum tandem@0.1.0     # a release tarball (TANDEM_RELEASES)
# README, "On a cluster", says how a site installs Tandem, with Spack or without.
import os

try:
    from spack.package import *  # Spack 0.18 and later
except ImportError:
    from spack import *  # Spack 0.17 and earlier


class Tandem(AutotoolsPackage):
    """Tandem, an OpenSHMEM 1.6 implementation: PEs of a node reach each other through
    shared memory, PEs of other nodes through libfabric; started by its own oshrun or any
    PMIx launcher (mpirun, srun --mpi=pmix); notified access and MPI-style epochs as
    extensions."""

    # Release tarballs are what `make dist` makes, tandem-VERSION.tar.gz.  Spack looks for
    # them first in its mirrors (tandem/tandem-VERSION.tar.gz in a mirror added with
    # `spack mirror add`), then in TANDEM_RELEASES, a directory of the site's (default
    # /opt/tandem/releases).  A release is listed with the line `spack checksum tandem
    # VERSION` prints; until then, `spack install --no-checksum tandem@VERSION`.
    url = "file://{0}/tandem-0.1.0.tar.gz".format(
        os.environ.get("TANDEM_RELEASES", "/opt/tandem/releases"))
    # The repository's main branch, from TANDEM_GIT (a URL or a path that git clones).
    git = os.environ.get("TANDEM_GIT", "/opt/tandem/tandem.git")

    version("main", branch="main")

    variant("progress_thread", default="auto", values=("auto", "on", "off"),
            description="The default of TANDEM_PROGRESS_THREAD, which a job may still "
                        "override: a thread that progresses the network while a PE computes")
    variant("man", default=True, description="Build and install the manual pages")
    variant("sanitizers", default="none", values=("none", "address", "thread"),
            description="Build with sanitizers (address: AddressSanitizer and "
                        "UndefinedBehaviorSanitizer), for debugging Tandem itself; a site "
                        "installs the default, none")

    depends_on("libfabric@1.11:")
    depends_on("pmix@4:")
    depends_on("hwloc@2:")
    # Only a checkout needs configure made.
    depends_on("autoconf", type="build", when="@main")
    depends_on("automake", type="build", when="@main")
    depends_on("libtool", type="build", when="@main")
    depends_on("m4", type="build", when="@main")

    # The installed oshcc and oshc++ name the compilers Tandem was built with, not Spack's
    # wrappers of them.
    filter_compiler_wrappers("oshcc", "oshc++", relative_root="bin")

    def autoreconf(self, spec, prefix):
        if not os.path.exists(self.configure_abs_path):
            Executable("./autogen.sh")()

    def configure_args(self):
        spec = self.spec
        args = [
            "--with-ofi=" + spec["libfabric"].prefix,
            "--with-pmix=" + spec["pmix"].prefix,
            "--with-hwloc=" + spec["hwloc"].prefix,
            "--enable-progress-thread=" + spec.variants["progress_thread"].value,
        ]
        args.append("--enable-man-pages" if "+man" in spec else "--disable-man-pages")
        sanitizers = spec.variants["sanitizers"].value
        if sanitizers != "none":
            args.append("--enable-sanitizers=" +
                        ("address,undefined" if sanitizers == "address" else sanitizers))
            args.append("--disable-static")
        return args

    def setup_dependent_build_environment(self, env, dependent_spec):
        # What build systems of OpenSHMEM programs look for, as with other OpenSHMEMs; and
        # inside a Spack build, oshcc and oshc++ compile with Spack's compiler wrappers.
        env.set("SHMEM_CC", join_path(self.prefix.bin, "oshcc"))
        env.set("SHMEM_CXX", join_path(self.prefix.bin, "oshc++"))
        env.set("TANDEM_CC", spack_cc)
        env.set("TANDEM_CXX", spack_cxx)
