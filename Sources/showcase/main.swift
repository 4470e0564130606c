import Foundation
import TactileGTK

let app = ShowcaseApplication()
registerPages(in: app)
exit(app.run())
