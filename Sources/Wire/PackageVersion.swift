/// The version of this package, shared by everything that states one: `storehost --version`
/// and `storeclient --version` (`storehost 1.0.0`), the host's name in `welcome`
/// (`storehost/1.0.0`) and the clients' in `hello` (`storeclient/1.0.0`).
public enum PackageVersion {
  /// The version, `MAJOR.MINOR.PATCH`: the tag a release of the package carries.
  public static let current = "1.0.0"
}
