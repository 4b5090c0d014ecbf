/// A product of the shop's catalog, as the API serves it.
public struct CatalogProduct: Codable, Equatable, Hashable, Identifiable, Sendable {
  /// The catalog id.
  public var id: Int
  /// The product's name.
  public var title: String
  /// The unit price, in cents (integers keep totals exact).
  public var priceInCents: Int
  /// A sentence about the product.
  public var description: String
  /// The catalog category.
  public var category: String
  /// The name of the product's image asset.
  public var imageName: String

  /// Creates a product.
  ///
  /// - Parameters:
  ///   - id: The catalog id.
  ///   - title: The name.
  ///   - priceInCents: The unit price, in cents.
  ///   - description: A sentence about it.
  ///   - category: Its category.
  ///   - imageName: Its image asset's name.
  public init(
    id: Int, title: String, priceInCents: Int, description: String, category: String,
    imageName: String
  ) {
    self.id = id
    self.title = title
    self.priceInCents = priceInCents
    self.description = description
    self.category = category
    self.imageName = imageName
  }

  /// The fixed catalog the live ``APIClient`` serves.
  public static let catalog: [CatalogProduct] = [
    CatalogProduct(
      id: 1, title: "T-shirt", priceInCents: 1999, description: "Soft organic cotton, any size.",
      category: "Clothing", imageName: "tshirt"),
    CatalogProduct(
      id: 2, title: "Jacket", priceInCents: 8950, description: "Waterproof, with a hood.",
      category: "Clothing", imageName: "jacket"),
    CatalogProduct(
      id: 3, title: "Bag", priceInCents: 4500, description: "Fits a laptop and lunch.",
      category: "Accessories", imageName: "bag"),
    CatalogProduct(
      id: 4, title: "Cap", priceInCents: 1250, description: "One size, adjustable strap.",
      category: "Accessories", imageName: "cap"),
  ]
}

/// Formats cents as dollars: `1999` → `"$19.99"`.
func formatPrice(_ cents: Int) -> String {
  let sign = cents < 0 ? "-" : ""
  let magnitude = cents.magnitude
  let fraction = magnitude % 100
  return "\(sign)$\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}
