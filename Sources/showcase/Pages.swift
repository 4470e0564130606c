import TactileGTK

/// Every page of the showcase, in sidebar order. Add new pages here.
func registerPages(in app: ShowcaseApplication) {
    app.addPage(name: "hanoi", title: "Tower of Hanoi", build: makeHanoiPage)
    app.addPage(name: "cradle", title: "Newton's cradle", build: makeCradlePage)
    app.addPage(name: "pattern", title: "Pattern lock", build: makePatternPage)
    app.addPage(name: "puzzle", title: "Puzzle captcha", build: makePuzzlePage)
    app.addPage(name: "about", title: "About", build: makeAboutPage)
}
